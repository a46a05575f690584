/**
 * Files read_file never returns, in .gitignore syntax, matched without regard
 * to case (so `.ENV` on a case-insensitive disk is caught too). A name without
 * a slash matches at any depth; a trailing slash means "this folder and
 * everything in it". Kept short and specific: each entry names a place where
 * secrets live by convention.
 */
export const DEFAULT_DENY: readonly string[] = [
  // Environment files: dotenv's names, and the dash and underscore spellings
  // other tools use for the same thing (.env-local, .env_production)
  '.env',
  '.env.*',
  '.env-*',
  '.env_*',
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
  // PuTTY private keys
  '*.ppk',
  // ASCII-armored PGP keys, as `gpg --export-secret-keys --armor` writes them; a detached
  // signature shares the extension but holds nothing a model needs to read
  '*.asc',
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
  // Cloud and cluster credentials by their tools' conventional names: kubectl's config (and
  // files named for KUBECONFIG), s3cmd's .s3cfg, boto's and gsutil's .boto, the gcloud and
  // Azure CLIs' folders, Google's application-default credentials and service-account keys
  '**/.kube/config',
  'kubeconfig',
  'kubeconfig.yaml',
  'kubeconfig.yml',
  '*.kubeconfig',
  '.s3cfg',
  '.boto',
  '**/.config/gcloud/',
  '.azure/',
  'application_default_credentials.json',
  'service-account*.json',
  '*-key.json',
  // Old docker logins, Terraform Cloud tokens, the GitHub CLI's tokens
  '.dockercfg',
  '.terraformrc',
  'terraform.rc',
  '**/.config/gh/hosts.yml',
  // Terraform variable files: where provider credentials and passwords are set
  // (terraform.tfvars, prod.auto.tfvars); *.tfvars.example stays readable
  '*.tfvars',
  '*.tfvars.json',
  // The conventional names of secret stores (Rails' config/secrets.yml, secrets.json
  // of many frameworks); code about secrets (secrets.ts) stays readable
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
];
