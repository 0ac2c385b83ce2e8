import { runGatewayProcess } from "./run.js";

await runGatewayProcess(process.env);
