/**
 * Paths a model might send to read what it must not: every one is refused
 * with `denied`. Placeholders are filled in by the test: {root} is the
 * project root, {outside} a folder beside it holding a secret, {base} their
 * parent. Add a case by adding a line; the test tree is in test-tree.fixture.ts.
 */
export interface EscapeCase {
  path: string;
  why: string;
}

export const ESCAPE_CORPUS: readonly EscapeCase[] = [
  // Traversal
  { path: '../outside/secret.txt', why: 'parent traversal' },
  { path: '../../../../../../etc/passwd', why: 'deep traversal to a system file' },
  { path: 'sub/../../outside/secret.txt', why: 'traversal after a real folder' },
  { path: './../outside/secret.txt', why: 'dot then traversal' },
  { path: 'sub/./deep/../../../outside/secret.txt', why: 'mixed dots' },
  { path: 'sub//..//..//outside/secret.txt', why: 'doubled separators' },
  { path: '..', why: 'the parent folder itself' },
  { path: '../project-evil/secret.txt', why: 'sibling whose name starts with the root name' },
  { path: 'nonexistent/../../outside/secret.txt', why: 'traversal through a missing folder' },
  // Absolute paths elsewhere
  { path: '{outside}/secret.txt', why: 'absolute path outside the root' },
  { path: '{base}/project-evil/secret.txt', why: 'absolute path to a sibling with the root as prefix' },
  { path: '{root}/../outside/secret.txt', why: 'absolute path into the root, then out' },
  { path: '/etc/passwd', why: 'system file' },
  { path: '/etc/shadow', why: 'unreadable system file' },
  { path: '/proc/self/environ', why: 'process environment' },
  { path: '//etc/passwd', why: 'double-slash absolute path' },
  { path: '/', why: 'filesystem root' },
  // Backslash tricks (backslashes count as separators)
  { path: '..\\outside\\secret.txt', why: 'Windows-style traversal' },
  { path: 'sub\\..\\..\\outside\\secret.txt', why: 'Windows-style traversal after a real folder' },
  { path: '..\\/outside/secret.txt', why: 'mixed separators' },
  { path: 'C:\\Windows\\win.ini', why: 'Windows drive path' },
  { path: 'c:/outside/secret.txt', why: 'drive letter with slashes' },
  { path: '\\\\server\\share\\secret.txt', why: 'UNC path' },
  // Percent-encoding tricks (never decoded)
  { path: '%2e%2e/outside/secret.txt', why: 'encoded dots' },
  { path: '..%2foutside%2fsecret.txt', why: 'encoded slashes' },
  { path: '%2E%2E%2Foutside%2Fsecret.txt', why: 'upper-case encoding' },
  { path: '%252e%252e/outside/secret.txt', why: 'double encoding' },
  { path: '..%5coutside%5csecret.txt', why: 'encoded backslashes' },
  { path: '%c0%ae%c0%ae/outside/secret.txt', why: 'overlong UTF-8 dots' },
  { path: '.env%00.txt', why: 'encoded NUL' },
  // NUL bytes
  { path: 'README.md\u0000../outside/secret.txt', why: 'NUL byte truncation' },
  { path: '\u0000', why: 'only a NUL byte' },
  // Home, URLs
  { path: '~/.ssh/id_rsa', why: 'home directory' },
  { path: '~root/.bashrc', why: "another user's home" },
  { path: 'file:///etc/passwd', why: 'file URL' },
  // Symbolic links leading out
  { path: 'link-to-outside-file', why: 'relative link to an outside file' },
  { path: 'abs-link-to-outside', why: 'absolute link to an outside file' },
  { path: 'link-to-outside-dir/secret.txt', why: 'file through a link to an outside folder' },
  { path: 'link-to-outside-dir/missing.txt', why: 'missing file through a link to an outside folder' },
  { path: 'dangling-outside', why: 'dangling link whose target would be outside' },
  { path: 'sub/deep-link/secret.txt', why: 'nested link out' },
  { path: 'link-to-parent/outside/secret.txt', why: 'link to the parent folder' },
  { path: 'link-to-parent/project/README.md', why: 'link out and back in by name' },
  { path: 'chain-a', why: 'chain of links ending outside' },
  { path: 'link-to-etc/passwd', why: 'link to a system folder' },
  { path: 'link-to-sibling/secret.txt', why: 'link to the sibling with the root as prefix' },
  { path: '{root}/link-to-outside-dir/secret.txt', why: 'absolute path through a link out' },
  // Secret names, their case variants and disguises
  { path: '.env', why: 'environment file' },
  { path: '.ENV', why: 'upper-case environment file' },
  { path: '.Env.Local', why: 'mixed-case environment variant' },
  { path: 'config/.env.production', why: 'nested environment file' },
  { path: './.env', why: 'dot prefix' },
  { path: 'sub/../.env', why: 'traversal to a secret inside the root' },
  { path: '.env/', why: 'trailing slash' },
  { path: '{root}/.env', why: 'absolute path to a secret' },
  { path: '.git/config', why: 'repository config' },
  { path: '.GIT/HEAD', why: 'upper-case repository folder' },
  { path: '.ssh/id_rsa', why: 'private key folder' },
  { path: 'keys/id_rsa', why: 'private key by name' },
  { path: 'keys/ID_RSA', why: 'upper-case private key name' },
  { path: 'keys/id_ed25519.pub', why: 'key pair file' },
  { path: 'certs/server.pem', why: 'PEM file' },
  { path: 'certs/server.KEY', why: 'upper-case key extension' },
  { path: '.npmrc', why: 'npm token file' },
  { path: '.netrc', why: 'netrc passwords' },
  { path: '.aws/credentials', why: 'cloud credentials' },
  // Backups and copies of secret names, and credential files (issue #31)
  { path: '.env~', why: 'editor backup of .env' },
  { path: '#.env#', why: 'Emacs auto-save of .env' },
  { path: 'config/..env.production.swp', why: 'Vim swap file of a nested environment file' },
  { path: 'certs/server.pem.bak', why: 'backup of a PEM file' },
  { path: '.npmrc~', why: 'editor backup of an npm token file' },
  { path: 'Copy of .netrc', why: 'Windows copy of netrc passwords' },
  { path: '.ssh.bak/id_rsa', why: 'backup of the key folder' },
  { path: '.kube/config', why: 'kubectl credentials' },
  { path: '.s3cfg', why: 's3cmd credentials' },
  { path: 'gcp/prod-key.json', why: 'service-account key by name' },
  // Links to secrets inside the root
  { path: 'link-to-env', why: 'innocent name linking to .env' },
  { path: 'link-to-git/config', why: 'folder link into .git' },
  // Denied folders themselves: a listing would show the names inside
  { path: '.git', why: 'repository folder, listed' },
  { path: '.ssh', why: 'key folder, listed' },
  { path: 'link-to-git', why: 'link to the repository folder, listed' },
  { path: '.aws/', why: 'cloud credentials folder with a trailing slash' },
];
