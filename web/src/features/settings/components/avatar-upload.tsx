import { Camera } from 'lucide-react'
import { useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { initials } from '@/lib/initials'
import { avatarFileProblem, uploadAvatar } from '../api/upload-avatar'

interface AvatarUploadProps {
  userId: string
  avatarUrl: string | null
  name: string | null
  email: string | null
  onUploaded: (url: string) => void
}

export function AvatarUpload({ userId, avatarUrl, name, email, onUploaded }: AvatarUploadProps) {
  const inputRef = useRef<HTMLInputElement>(null)
  const [uploading, setUploading] = useState(false)
  const toast = useToast()

  const onFile = async (file: File | undefined) => {
    if (!file) return
    const problem = avatarFileProblem(file)
    if (problem) {
      toast.error(problem, undefined, { key: 'avatar' })
      return
    }
    setUploading(true)
    try {
      const url = await uploadAvatar(userId, file)
      onUploaded(url)
      toast.success('Profile photo updated successfully!', 'Photo Upload Complete', { key: 'avatar' })
    } catch (error) {
      toast.error((error as Error).message, undefined, { key: 'avatar' })
    } finally {
      setUploading(false)
      if (inputRef.current) inputRef.current.value = ''
    }
  }

  return (
    <div className="flex flex-col items-center gap-5 sm:flex-row">
      <div className="relative">
        <span className="flex size-24 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-2xl font-semibold text-brand-700 ring-4 ring-white shadow">
          {avatarUrl ? (
            <img src={avatarUrl} alt="Your profile" className="size-full object-cover" />
          ) : (
            initials(name, email)
          )}
        </span>
        <span className="absolute right-0 bottom-0 flex size-8 items-center justify-center rounded-full bg-white text-slate-600 shadow ring-1 ring-slate-200">
          <Camera className="size-4" aria-hidden="true" />
        </span>
      </div>
      <div className="text-center sm:text-left">
        <input
          ref={inputRef}
          id="avatar-file"
          type="file"
          accept="image/*"
          className="sr-only"
          onChange={(event) => void onFile(event.target.files?.[0])}
        />
        <Button
          variant="secondary"
          loading={uploading}
          loadingText="Uploading..."
          onClick={() => inputRef.current?.click()}
        >
          Upload photo
        </Button>
        <p className="mt-2 text-xs text-slate-500">PNG, JPG, GIF or WebP, up to 5 MB.</p>
      </div>
    </div>
  )
}
