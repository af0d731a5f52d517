// Prints the results of a crd-yaml SARIF report as GitHub workflow commands (::error, ::warning, ::notice),
// which annotate the run and the pull request's changed lines (action/run.sh).
// usage: node action/annotations.mjs FILE.sarif
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Workflow command escaping: data, and property values (which also escape `:` and `,`). */
const data = (s) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const COMMAND = { error: 'error', warning: 'warning', note: 'notice', none: 'notice' };

/** The workflow commands of a SARIF log, one per result. */
export function annotations(log) {
  const out = [];
  for (const run of log.runs ?? []) {
    for (const r of run.results ?? []) {
      const loc = r.locations?.[0]?.physicalLocation;
      const props = [];
      if (loc?.artifactLocation?.uri) props.push(`file=${prop(decodeURI(loc.artifactLocation.uri))}`);
      const reg = loc?.region;
      if (reg?.startLine) props.push(`line=${reg.startLine}`);
      if (reg?.startColumn) props.push(`col=${reg.startColumn}`);
      if (reg?.endLine) props.push(`endLine=${reg.endLine}`);
      if (reg?.endColumn && reg.endLine === reg.startLine) props.push(`endColumn=${reg.endColumn}`);
      props.push(`title=${prop(`crd-yaml ${r.ruleId ?? ''}`.trim())}`);
      // The message as the editor says it; the API server's own text on the next line.
      const api = r.properties?.apiMessage;
      const text = api && api !== r.message?.text ? `${r.message?.text}\n${api}` : r.message?.text;
      out.push(`::${COMMAND[r.level ?? 'warning'] ?? 'warning'} ${props.join(',')}::${data(text ?? '')}`);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of annotations(JSON.parse(readFileSync(process.argv[2], 'utf8')))) console.log(line);
}
