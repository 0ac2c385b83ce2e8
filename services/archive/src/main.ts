import { runArchiveProcess } from "./run.js";

await runArchiveProcess(process.env);
