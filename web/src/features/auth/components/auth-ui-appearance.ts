import { ThemeSupa } from '@supabase/auth-ui-shared'

// The Supabase Auth UI themed with the app's tokens, so the recovery pages match the login form.
const fontStack = 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'

export const authUiAppearance = {
  theme: ThemeSupa,
  variables: {
    default: {
      colors: {
        brand: '#4f46e5',
        brandAccent: '#4338ca',
        brandButtonText: '#ffffff',
        inputBorder: '#cbd5e1',
        inputBorderHover: '#94a3b8',
        inputBorderFocus: '#4f46e5',
        inputText: '#0f172a',
        inputLabelText: '#334155',
        inputPlaceholder: '#94a3b8',
        messageTextDanger: '#b91c1c',
        messageBackgroundDanger: '#fef2f2',
        messageBorderDanger: '#fecaca',
        anchorTextColor: '#4338ca',
        anchorTextHoverColor: '#3730a3',
      },
      space: { buttonPadding: '12px 16px', inputPadding: '11px 14px', labelBottomMargin: '6px' },
      fontSizes: {
        baseBodySize: '14px',
        baseInputSize: '15px',
        baseLabelSize: '14px',
        baseButtonSize: '15px',
      },
      fonts: {
        bodyFontFamily: fontStack,
        buttonFontFamily: fontStack,
        inputFontFamily: fontStack,
        labelFontFamily: fontStack,
      },
      radii: { borderRadiusButton: '8px', buttonBorderRadius: '8px', inputBorderRadius: '8px' },
    },
  },
}
