import { defineConfig } from 'rolldown';
import { commonjs } from '../../scripts/rolldown-commonjs.mjs';

// tsc writes the package's JavaScript; this adds the formats entry as CommonJS
// (dist/formats.cjs), which the `toolshed` command's program requires to offer the formats
// (`schema --format`) as it builds its commands: see the helper.
export default defineConfig(commonjs({ input: { formats: 'src/formats.ts' }, dir: 'dist' }));
