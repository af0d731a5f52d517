/**
 * node --import tsx test/celspec/cli.ts [--dir DIR] [--show N] [--text]
 *
 * Prints, per peer suite of ../shared/celspec, the cases agreeing with the Kubernetes answer and the
 * error-text agreement of the failures; --show lists up to N disagreements per suite, --text the
 * failures whose text differs.
 */
import { defaultCelspecDir, runSuite, SUITE_FILES, type PeerResult } from './runner';

function brief(r: PeerResult): string {
  const side = (s: PeerResult['expected']) => `${s.phase}${s.value ? ` ${JSON.stringify(s.value)}` : ''}${s.type && s.phase === 'checked' ? ` ${s.type}` : ''}${s.message ? ` ${JSON.stringify(s.message)}` : ''}`;
  return `${r.id}\n    k8s: ${side(r.expected).slice(0, 400)}\n    us:  ${side(r.actual).slice(0, 400)}`;
}

function main(argv: string[]): number {
  let dir = defaultCelspecDir();
  let show = 0;
  let text = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') dir = argv[++i];
    else if (argv[i] === '--show') show = Number(argv[++i]);
    else if (argv[i] === '--text') text = true;
  }
  for (const f of SUITE_FILES) {
    const s = runSuite(dir, f);
    console.log(`${f}: ${s.agree} of ${s.total} agree (${((100 * s.agree) / s.total).toFixed(1)} %); error text ${s.sameText} of ${s.failures} failures`);
    for (const r of s.disagreements.slice(0, show)) console.log(`  ${brief(r)}`);
    if (text) for (const r of s.textDiffers.slice(0, show || 1000)) console.log(`  text ${brief(r)}`);
  }
  return 0;
}

process.exit(main(process.argv.slice(2)));
