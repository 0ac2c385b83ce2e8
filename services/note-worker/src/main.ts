import { runNoteWorkerProcess } from "./run.js";

await runNoteWorkerProcess(process.env);
