// GitHub Actions reads "::command key=value,key=value::data" lines from a step's output. Its runner
// decodes %25, %0D and %0A in the data, and also %3A and %2C in property values, so encoding those
// characters is what keeps a message on one line and a title from ending early at ":" or ",".
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
