import fs from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { FIXTURES } from './cli.js';

// The common JUnit schema (Jenkins' junit-10.xsd), which every file safe-run writes must satisfy.
const XSD = fs.readFileSync(path.join(FIXTURES, 'junit', 'junit-10.xsd'), 'utf8');

// What libxml2 (xmllint, built to WebAssembly) finds wrong with a JUnit file; [] when it validates.
export async function junitProblems(xml: string, fileName = 'junit.xml'): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName, contents: xml }], schema: [XSD] });
  return result.errors.map((error) => error.rawMessage);
}

// Reads a JUnit file safe-run wrote and checks it against the schema.
export async function readValidJunit(file: string): Promise<string> {
  const xml = fs.readFileSync(file, 'utf8');
  const problems = await junitProblems(xml, path.basename(file));
  if (problems.length > 0)
    throw new Error(`${file} does not validate against junit-10.xsd:\n${problems.join('\n')}`);
  return xml;
}
