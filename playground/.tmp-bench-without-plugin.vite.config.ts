import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    react(),
  ],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
  preview: { host: '127.0.0.1' },
  // The runtime is a linked workspace package: pre-bundle what it imports at startup, so the
  // first page load does not trigger a re-optimisation (and a reload).
  optimizeDeps: {
    include: ['react', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'effection', 'zod', 'react-markdown'],
    noDiscovery: true,
  },
})
