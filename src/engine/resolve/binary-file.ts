// bash's check_binary_file(): a NUL byte in the first line (first two lines after #!) of 128 bytes.
// Such a file the kernel refused is "binary" (126); anything else bash runs as a shell script.
export function looksBinary(sample: Buffer): boolean {
  let lines = sample[0] === 0x23 && sample[1] === 0x21 ? 2 : 1;
  for (const byte of sample) {
    if (byte === 0x0a && --lines === 0) return false;
    if (byte === 0) return true;
  }
  return false;
}

export function describeBinary(bytes: Buffer): string {
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) return 'a Windows executable';
  const magic = bytes.length >= 4 ? bytes.readUInt32BE(0) : 0;
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) return 'a macOS (Mach-O) executable';
  if (magic === 0xcafebabe) return 'a macOS universal binary or Java class file';
  return 'binary data that is neither ELF nor a #! script';
}
