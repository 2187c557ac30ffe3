/**
 * The usage lines that both the command table (commands.ts) and a command's own messages quote:
 * here, so no command imports the table that loads it.
 */
export const CONSENT_USAGE = 'consent list | grant SERVER TOOL [--always] | grant-launch SERVER | revoke SERVER [TOOL] | grant-skill SERVER URI [--yes] | revoke-skill SERVER URI';
export const GALLERY_USAGE =
  'gallery search [QUERY] [--registry URL] [--cursor C] [--limit N] [--json] | add NAME [--version V] [--set KEY=VALUE]... [--name LOCAL] [--option N] [--allow-env NAME[,NAME…]] [--allow-lookalike] [--yes] [--dry-run]';
export const SECRET_USAGE = 'secret set|list|delete [NAME] | grant|revoke NAME SERVER';
