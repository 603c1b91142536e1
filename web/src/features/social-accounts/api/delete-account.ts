export { ACCOUNT_DELETED, deleteAccount } from '@/lib/accounts/delete-account'
