import { startServer } from './server.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { SecretsKeyError } from './infra/secrets-at-rest.ts';

const server = await startServer().catch((error: unknown) => {
  // A refusal to start says why in one line; anything else keeps its stack.
  console.error(
    error instanceof DataDirInUseError || error instanceof SecretsKeyError ? error.message : error,
  );
  process.exit(1);
});
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
