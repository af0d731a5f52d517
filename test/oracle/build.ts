// Builds the Go oracle when it is missing or stale, saying so first (a cold build takes minutes): run by
// scripts/test.mjs before the suites, so that `npm test` is not silent while Go compiles.
import { ensureOracleBinary, goAvailable } from './oracle';

if (goAvailable()) {
  const t0 = Date.now();
  let built = false;
  try {
    ensureOracleBinary({
      log: (m) => {
        built = true;
        console.error(`npm test: ${m} (the first build downloads and compiles k8s.io/apiextensions-apiserver: a few minutes)`);
      },
    });
  } catch (e) {
    // The oracle tests report the failure with go's output.
    console.error(`npm test: the oracle did not build: ${(e as Error).message.split('\n')[0]}`);
  }
  if (built) console.error(`npm test: oracle built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
