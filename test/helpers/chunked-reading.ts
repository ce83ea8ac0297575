// Feeding a line reader (the stdio transport's read buffer, or the SDK's) bytes cut into chunks.

export type MessageReader = { append(chunk: Buffer): void; readMessage(): unknown };

/** Every message the reader gives, appending the chunks one by one. */
export function readAll(reader: MessageReader, chunks: Buffer[]): unknown[] {
  const messages: unknown[] = [];
  for (const chunk of chunks) {
    reader.append(chunk);
    for (let message = reader.readMessage(); message !== null; message = reader.readMessage()) messages.push(message);
  }
  return messages;
}

/** The bytes cut at the given sizes, over and over. */
export function cut(bytes: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0, index = 0; start < bytes.length; index++) {
    const end = Math.min(bytes.length, start + sizes[index % sizes.length]!);
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}
