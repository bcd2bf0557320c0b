// Modules that vite.config.ts writes at build time.

/** Every namespace of the default language (src/locales/TW.json) by its loader: one chunk each. */
declare module 'virtual:default-lang/index' {
  const loaders: Readonly<Record<string, () => Promise<{ default: Record<string, unknown> }>>>;
  export default loaders;
}
