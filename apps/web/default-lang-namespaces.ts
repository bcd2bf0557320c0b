// A Vite plugin of the web app's build, also used by its unit tests (vitest.config.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** The default language's file: its namespaces are also modules of their own (below). */
const defaultLocaleFile = join(import.meta.dirname, 'src/locales/TW.json');
const namespaceModulePrefix = 'virtual:default-lang/';

/**
 * `virtual:default-lang/<namespace>`: one namespace of the default language as a module (its
 * texts as the default export), so a screen entered directly downloads its own texts, not the
 * whole language (lib/i18n.ts, issue 33). `virtual:default-lang/index` maps every namespace to
 * its loader.
 */
export function defaultLangNamespaces(): Plugin {
  const resolved = '\0' + namespaceModulePrefix;
  return {
    name: 'nadi-default-lang-namespaces',
    resolveId: (id) => (id.startsWith(namespaceModulePrefix) ? resolved + id.slice(namespaceModulePrefix.length) : null),
    load(id) {
      if (!id.startsWith(resolved)) return null;
      this.addWatchFile(defaultLocaleFile);
      const messages = JSON.parse(readFileSync(defaultLocaleFile, 'utf8')) as Record<string, unknown>;
      const name = id.slice(resolved.length);
      if (name === 'index') {
        const loaders = Object.keys(messages).map((ns) => `  ${JSON.stringify(ns)}: () => import(${JSON.stringify(namespaceModulePrefix + ns)}),`);
        return `export default {\n${loaders.join('\n')}\n};\n`;
      }
      if (!(name in messages)) throw new Error(`${defaultLocaleFile} has no namespace ${name}`);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(messages[name]))});\n`;
    },
  };
}
