// Whether the sandbox tests can run here: bubblewrap installed and user namespaces allowed.
// Where not, they are skipped and this reason is printed (CI installs bubblewrap: .ci/run).
import { checkSandbox } from '../../src/services/sandbox/index';

const availability = await checkSandbox(process.env);

export const sandboxMissing: string | undefined = availability.ok ? undefined : availability.reason;

if (sandboxMissing) console.warn(`sandbox tests skipped: ${sandboxMissing}`);
