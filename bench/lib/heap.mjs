/**
 * The heap used after a forced full GC, read from outside a process started with INSPECT through
 * Node's inspector (Chrome DevTools Protocol), so what is measured is the binary users run, with no
 * hook of ours built into it. RSS alone cannot tell a leak from V8 sizing its heap; this can.
 * (test/e2e/wire.ts has the same probe for the heap soak test.)
 */

/** Node's flag that opens the inspector on a free loopback port; it prints the address on stderr. */
export const INSPECT = '--inspect=127.0.0.1:0';

/** Connects once `stderr()` shows the inspector's address; `heapUsedAfterGc()` resolves with bytes. */
export async function heapProbe(stderr) {
  let address;
  for (let i = 0; i < 500 && !address; i++) {
    address = /Debugger listening on (ws:\/\/\S+)/.exec(stderr())?.[1];
    if (!address) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!address) throw new Error(`no inspector address on stderr: ${stderr().slice(-300)}`);
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 0;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id === undefined) return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const command = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** Two collections: the first runs finalizers, the second collects what they released. */
    async heapUsedAfterGc() {
      await command('HeapProfiler.collectGarbage');
      await command('HeapProfiler.collectGarbage');
      const answer = await command('Runtime.evaluate', {
        expression: 'process.memoryUsage().heapUsed',
        returnByValue: true,
      });
      return Number(answer.result?.result?.value);
    },
    close: () => socket.close(),
  };
}
