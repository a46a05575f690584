/**
 * Files read_file never returns, in .gitignore syntax, matched without regard
 * to case (so `.ENV` on a case-insensitive disk is caught too). A name without
 * a slash matches at any depth; a trailing slash means "this folder and
 * everything in it". Kept short and specific: each entry names a place where
 * secrets live by convention.
 */
export const DEFAULT_DENY: readonly string[] = [
  // Environment files
  '.env',
  '.env.*',
  '.envrc',
  // Private keys, certificates and key stores
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  // Folders that hold keys, tokens or repository internals
  '.ssh/',
  '.gnupg/',
  '.aws/',
  '.git/',
  // Credential and token files
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  '.vault-token',
  'credentials',
  'credentials.*',
  '**/.docker/config.json',
  '*.tfstate',
  '*.tfstate.*',
];
