// Stands in for the app's notes API: what it stored, and with which token.
export const stored: Array<{ title: string; pinned: boolean; token: string; signature: string }> = []
