export interface GeneratedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}
export function manyTools(count: number, offset?: number): GeneratedTool[];
export const MANY_TOOLS_TOTAL: number;
