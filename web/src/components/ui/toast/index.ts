export { toastMessages } from './toast-messages'
export { type ToastApi, ToastProvider, useToast } from './toast-provider'
export type { ToastOptions, ToastType } from './toast-store'
