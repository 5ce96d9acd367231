// What Muster tells people in Slack when it cannot do what they asked: Dispatch's wording where
// Dispatch had one, so that teams moving over recognise it.

export const texts = {
  unknownCommand: (command: string) =>
    `Muster does not know the command \`${command}\`. Check the Slack app's slash commands against the plugin's configuration.`,
  unavailable: (command: string) => `\`${command}\` is not available in Muster.`,
  unknownUser: (email: string | null, organization: string) =>
    email
      ? `Muster does not know you: no member of the organization \`${organization}\` has the e-mail address ${email} of your Slack profile. Ask an administrator to invite you, then try again.`
      : 'Muster does not know you: your Slack profile shows no e-mail address, which is how Muster tells who you are.',
  notInIncident: (command: string) =>
    `I see you tried to run \`${command}\` in an non-incident conversation. Incident-specifc commands can only be run in incident conversations.`,
  notInCase: (command: string) => `\`${command}\` can only be run in a case's own channel. A case kept in a thread is changed with the buttons on its message.`,
  notYours: 'This dialog was opened by someone else.',
  hidden: (kind: 'incident' | 'case') => `You are not allowed to see this ${kind}.`,
  notPrivileged: (command: string) =>
    `I see you tried to run \`${command}\`. This is a sensitive command and cannot be run with the incident role you are currently assigned.`,
  slackBusy: (seconds: number) => `Slack asked Muster to slow down. Please try again in ${Math.max(1, Math.ceil(seconds))} seconds.`,
  slackFailed: 'Muster could not reach Slack in time to open the dialog. Please try again.',
  forbidden: "You don't have permission to do this. Please, contact your Muster admin.",
};
