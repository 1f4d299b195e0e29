// Runs once before the Node tests: a machine without the browser the report checks need gets Debian's chromium
// installed (root with apt-get) or the run stops here, in its first seconds, with the fix.
import { checkPrerequisites } from "../../scripts/test-prereqs.mjs";

export default function setup(): void {
  checkPrerequisites((line) => process.stderr.write(line + "\n"));
}
