import { describe, expect, it } from 'vitest';
import { checkManifestField } from './manifest.js';
import { checkPermissions, resolvePermissions } from './permissions.js';

describe('declared permissions', () => {
  it('are none when the manifest leaves them out', () => {
    expect(checkManifestField({ apiVersion: 1, tools: ['echo'] }).permissions).toEqual({
      read: [],
      write: [],
      net: [],
      env: [],
      spawn: false,
    });
  });

  it('keep what a package declares, values from options included', () => {
    const declared = {
      read: ['.'],
      write: [{ option: 'outbox', default: '.toolshed/outbox' }],
      net: ['smtp.example.com:587', { host: { option: 'smtp.host' }, port: { option: 'smtp.port', default: 587 } }],
      env: ['SMTP_PASSWORD'],
      spawn: false,
    };
    expect(checkManifestField({ apiVersion: 1, tools: ['send_email'], permissions: declared }).permissions).toEqual(declared);
  });

  it.each([
    [[], 'toolshed.permissions', 'must be an object'],
    [{ files: [] }, 'toolshed.permissions', 'unknown key "files"'],
    [{ read: 'data' }, 'toolshed.permissions.read', 'must be a list'],
    [{ read: [''] }, 'toolshed.permissions.read[0]', 'must be a path'],
    [{ read: ['a\0b'] }, 'toolshed.permissions.read[0]', 'must be a path'],
    [{ write: [{ option: 'a b' }] }, 'toolshed.permissions.write[0]', 'option path'],
    [{ net: ['example.com'] }, 'toolshed.permissions.net[0]', 'must be "host:port"'],
    [{ net: ['example.com:70000'] }, 'toolshed.permissions.net[0]', 'must be "host:port"'],
    [{ net: [{ host: 'a..b', port: 25 }] }, 'toolshed.permissions.net[0].host', 'host name'],
    [{ net: [{ host: 'a', port: { option: 'p', default: 0 } }] }, 'toolshed.permissions.net[0].port', 'port number'],
    [{ env: ['SMTP PASSWORD'] }, 'toolshed.permissions.env[0]', 'environment variable name'],
    [{ spawn: 'yes' }, 'toolshed.permissions.spawn', 'true or false'],
    [{ read: Array.from({ length: 65 }, () => '.') }, 'toolshed.permissions.read', 'at most 64'],
  ])('refuse %j naming %s', (permissions, field, message) => {
    let thrown: unknown;
    try {
      checkPermissions(permissions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ phase: 'validate', field });
    expect((thrown as Error).message).toContain(message);
  });

  it('are filled in from the options, with defaults, and drop what an unset option asks for', () => {
    const declared = checkPermissions({
      write: [{ option: 'outbox', default: '.toolshed/outbox' }, { option: 'ledger.path' }],
      net: [{ host: { option: 'smtp.host' }, port: { option: 'smtp.port', default: 587 } }],
    });
    expect(resolvePermissions(declared, { smtp: { host: 'Mail.Example.com' } })).toEqual({
      read: [],
      write: ['.toolshed/outbox'],
      net: ['mail.example.com:587'],
      env: [],
      spawn: false,
    });
    expect(resolvePermissions(declared, {}).net).toEqual([]);
  });

  it('take a host and port from an option holding a URL, the port falling back to the default', () => {
    const declared = checkPermissions({ net: [{ host: { option: 'ledger.url' }, port: { option: 'ledger.url', default: 5432 } }] });
    expect(resolvePermissions(declared, { ledger: { url: 'postgres://app:pw@DB.example.com:6543/calls' } }).net).toEqual([
      'db.example.com:6543',
    ]);
    expect(resolvePermissions(declared, { ledger: { url: 'postgres://app@db.example.com/calls' } }).net).toEqual(['db.example.com:5432']);
    // A URL without a host (a Unix socket's) asks for no network.
    expect(resolvePermissions(declared, { ledger: { url: 'postgres:///calls?host=/run/postgresql' } }).net).toEqual([]);
    expect(() => resolvePermissions(declared, { ledger: { url: 'not a url' } })).toThrow(
      expect.objectContaining({ phase: 'options', field: 'ledger.url' }),
    );
  });

  it('refuse an option of the wrong kind, naming the option', () => {
    const declared = checkPermissions({ net: [{ host: { option: 'smtp.host' }, port: 25 }] });
    expect(() => resolvePermissions(declared, { smtp: { host: 'bad host' } })).toThrow(
      expect.objectContaining({ phase: 'options', field: 'smtp.host' }),
    );
  });
});
