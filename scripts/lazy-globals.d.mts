/** See lazy-globals.mjs: the module rewritten with lazy stand-ins, or undefined when nothing changes. */
export function lazifyModuleGlobals(source: string, helperPath: string): string | undefined;
