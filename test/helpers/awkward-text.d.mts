/** See awkward-text.mjs. */
export function awkwardText(lines: number, secret: string | undefined): string;
