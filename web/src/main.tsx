import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { env } from './config/env'
import { authStorageKey, startAuth } from './lib/auth-store'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
startAuth(authStorageKey(env.supabaseUrl))
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
