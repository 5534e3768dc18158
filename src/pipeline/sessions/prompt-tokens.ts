/** A prompt's size in tokens, estimated as providers' tokenizers average on code and prose: 4 bytes each. */
export function promptTokens(prompt: string): number {
  return Math.ceil(Buffer.byteLength(prompt) / 4);
}
