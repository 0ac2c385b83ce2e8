// The echo service as a process of its own (started like `loupe serve`: node with tsx), so its memory is
// measured the same way. Prints {"echo":<port>} once serving; stops on SIGTERM.
import { startEchoServer } from "./echo-server.js";

const server = await startEchoServer();
console.log(JSON.stringify({ echo: server.port }));
process.once("SIGTERM", () => {
  void server.stop().then(() => process.exit(0));
});
