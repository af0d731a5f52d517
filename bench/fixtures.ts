/** Bench inputs: the CronTab CRD of the Kubernetes documentation and a file of many CronTab CRs. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crdYaml } from '../test/crd';

/** The CronTab CRD of the Kubernetes documentation's example (its schema; names as the tests' fixture writes them). */
export const CRONTAB_CRD = crdYaml(
  `type: object
properties:
  spec:
    type: object
    properties:
      cronSpec:
        type: string
        pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
      image:
        type: string
      replicas:
        type: integer
        minimum: 1
        maximum: 10`,
  { kind: 'CronTab', group: 'stable.example.com' },
);

/** n CronTab CRs in one multi-document file; the first has replicas out of range, so both servers report. */
export function cronTabs(n: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    docs.push(
      [
        'apiVersion: stable.example.com/v1',
        'kind: CronTab',
        'metadata:',
        `  name: my-cron-object-${i}`,
        'spec:',
        `  cronSpec: "* * * * */${(i % 9) + 1}"`,
        `  image: my-awesome-cron-image:${i}`,
        `  replicas: ${i === 0 ? 20 : 1}`,
      ].join('\n'),
    );
  }
  return docs.join('\n---\n') + '\n';
}

/** The YAML files under a folder, at any depth. */
export function* yamlFiles(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* yamlFiles(p);
    else if (/\.ya?ml$/.test(e.name)) yield p;
  }
}
