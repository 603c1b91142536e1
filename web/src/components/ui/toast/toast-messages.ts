// product.md §8 "Toast helper texts", so every feature words the common outcomes the same way.
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

export const toastMessages = {
  completed: (what: string) => `${capitalise(what)} completed successfully`,
  failed: (action: string) => `Failed to ${action}. Please try again.`,
  saved: (what: string) => `${capitalise(what)} saved successfully`,
  copied: (what: string) => `${capitalise(what)} copied to clipboard`,
  deleted: (what: string) => `${capitalise(what)} deleted successfully`,
  genericError: 'An error occurred',
}
