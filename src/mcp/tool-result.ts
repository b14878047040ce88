// What a tool answers: its text, the structured content, and whether it is an error.
export type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });
