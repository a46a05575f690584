import { expectConformance } from '@toolshed/testing';
import { it } from 'vitest';
import plugin from './index.js';

it('passes the Toolshed conformance checks', async () => {
  await expectConformance(plugin, { samples: { echo: [{ text: 'hello' }, { text: '' }, { text: 'ünïcödé ✓' }] } });
});
