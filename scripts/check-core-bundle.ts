// The core runs in the till's browser: bundle its entry for the browser platform
// and fail if anything pulls in a Node module (esbuild cannot resolve `node:*` or
// built-ins there) or a Node global slips past the type check.
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['packages/core/src/index.ts'],
  bundle: true,
  platform: 'browser',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'silent',
}).catch((error: { errors?: Array<{ text: string }> }) => {
  console.error('packages/core does not bundle for browsers:');
  for (const message of error.errors ?? []) console.error(`  ${message.text}`);
  process.exit(1);
});
const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.length, 0);
const inputs = Object.keys(result.metafile.inputs);
const nodeOnly = inputs.filter((input) => /(^|\/)node:|ipaddr\.js|ioredis|pino|\/pg\//.test(input));
if (nodeOnly.length > 0) {
  console.error(`packages/core bundles server-only modules: ${nodeOnly.join(', ')}`);
  process.exit(1);
}
// The till draws receipt QR codes with its own encoder; the rules have no use for it.
const tillOnly = inputs.filter((input) => input.includes('@paulmillr/qr'));
if (tillOnly.length > 0) {
  console.error(`packages/core bundles the till's QR encoder: ${tillOnly.join(', ')}`);
  process.exit(1);
}
console.log(`packages/core bundles for browsers: ${inputs.length} modules, ${Math.round(bytes / 1024)} KiB`);
