export function escapeNonAscii(text: string): string;
export function keepOutputAscii(dir: string): Promise<number>;
