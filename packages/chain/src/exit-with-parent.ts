// Preloaded into the Hardhat node child (`node --import`). startLocalChain keeps the write end of
// the child's stdin pipe; when the parent goes away, even by SIGKILL or a crash that skips stop(),
// the pipe ends and the node exits instead of lingering and holding its port.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
// Unref'd, so watching stdin never keeps alive a node that failed to start and wants to exit.
// Only a pipe (a socket) has unref; startLocalChain always passes one.
(process.stdin as { unref?: () => void }).unref?.();
