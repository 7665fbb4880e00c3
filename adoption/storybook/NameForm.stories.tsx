// Stories beside a tool, as an app keeps them: the plugin's form, and the plugin module itself
// (its tool's `execute` split away in the browser build, as in the app's own).
import type { Meta, StoryObj } from '@storybook/react-vite'
import { NameForm } from './NameForm.tsx'
import { greetPlugin } from './plugin.tsx'

const meta: Meta<typeof NameForm> = { component: NameForm, title: 'Greet/NameForm' }
export default meta

export const Empty: StoryObj<typeof NameForm> = { args: { onRespond: () => {}, errors: [] } as never }

export const WithThePlugin: StoryObj<typeof NameForm> = {
  render: () => <p>{`greet handles: ${Object.keys(greetPlugin.client.handlers).join(', ')}`}</p>,
}
