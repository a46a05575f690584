// A rolldown plugin for the packages on `toolshed list`'s start (cli's bin, host, mcp's mount): each
// static `import ... from "node:x"` in a chunk becomes a `require("node:x")` through one
// createRequire. Node 20 gives every built-in an ES module imports its own facade, and
// making it reads every export once: `node:fs` so loads the whole streams stack (its
// ReadStream getters), `node:util` loads MIME and AbortSignal code. Measured: the CLI's
// six built-ins ~1.2 ms of a ~20 ms start by import, ~0.3 ms by require. Sources keep
// their plain imports (types, tests under vitest); only the built files change.

const IMPORT = /^import ([^;]+?) from "(node:[^"]+)";\n/gm;
const NAMED = /^\{([^}]*)\}$/;
const REQUIRE = '__toolshedRequire';

/** `a, b as c` to `a, b: c`: the same names, bound by destructuring. */
function destructure(names) {
  return names
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => name.replace(/^(\S+) as (\S+)$/, '$1: $2'))
    .join(', ');
}

/** The declarations that replace one import clause of the built-in `specifier`. */
function declarations(clause, specifier) {
  const module = `${REQUIRE}(${JSON.stringify(specifier)})`;
  const named = NAMED.exec(clause.trim());
  if (named) return `const { ${destructure(named[1])} } = ${module};\n`;
  const namespace = /^\* as (\S+)$/.exec(clause.trim());
  if (namespace) return `const ${namespace[1]} = ${module};\n`;
  const both = /^(\S+), \{([^}]*)\}$/.exec(clause.trim());
  if (both) return `const ${both[1]} = ${module};\nconst { ${destructure(both[2])} } = ${both[1]};\n`;
  if (/^\S+$/.test(clause.trim())) return `const ${clause.trim()} = ${module};\n`;
  throw new Error(`require-builtins: cannot rewrite the import ${JSON.stringify(clause)} from ${specifier}`);
}

export function requireBuiltins() {
  return {
    name: 'require-builtins',
    renderChunk(code) {
      if (code.includes(REQUIRE)) throw new Error(`require-builtins: the chunk already uses the name ${REQUIRE}`);
      let found = false;
      const rewritten = code.replace(IMPORT, (_, clause, specifier) => {
        found = true;
        return declarations(clause, specifier);
      });
      if (!found) return null;
      const header = `import { createRequire as ${REQUIRE}Of } from "node:module";\nconst ${REQUIRE} = ${REQUIRE}Of(import.meta.url);\n`;
      // After a shebang, before everything else: the imports it replaces were hoisted anyway.
      const shebang = /^#![^\n]*\n/.exec(rewritten)?.[0] ?? '';
      return { code: shebang + header + rewritten.slice(shebang.length), map: null };
    },
  };
}
