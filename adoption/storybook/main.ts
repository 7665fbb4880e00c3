// .storybook/main.ts of the Storybook check (adoption/test/storybook.test.ts): Storybook's React +
// Vite framework over the app's own vite.config.ts, mcpBridge() in it.
import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
}
export default config
