/** The stdio transport's role files on their own: cutting lines, refusing what is no message, classifying and tracking requests. */
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../src/transports/stdio-lines.js';
import { classify, Requests, type Waiting } from '../../../src/transports/stdio-requests.js';
import { notAMessage, notJson } from '../../../src/transports/stdio-refusals.js';

function splitter(max = 16) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const split = new LineSplitter(
    max,
    (line) => lines.push(line),
    (length) => oversized.push(length),
  );
  return { split, lines, oversized };
}

describe('LineSplitter', () => {
  it('gives whole lines across chunks, and a last line without its newline at the end', () => {
    const { split, lines } = splitter();
    split.push(Buffer.from('ab'));
    split.push(Buffer.from('c\nde\nf'));
    expect(lines).toEqual(['abc', 'de']);
    split.end();
    expect(lines).toEqual(['abc', 'de', 'f']);
  });

  it('skips a line over the limit up to its newline, holding none of it, and reads on after it', () => {
    const { split, lines, oversized } = splitter(4);
    split.push(Buffer.from('123'));
    split.push(Buffer.from('456789'));
    split.push(Buffer.from('0\nok\n'));
    expect(oversized).toEqual([10]);
    expect(lines).toEqual(['ok']);
  });

  it('keeps a multi-byte character split across chunks whole', () => {
    const { split, lines } = splitter(64);
    const bytes = Buffer.from('é\n');
    split.push(bytes.subarray(0, 1));
    split.push(bytes.subarray(1));
    expect(lines).toEqual(['é']);
  });
});

describe('refusals', () => {
  it('answers a line that is not JSON with -32700, with an id when one can be read', () => {
    expect(notJson('{"jsonrpc":"2.0","id":7,"method":').answers).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/^Parse error/) }, id: 7 },
    ]);
    expect(notJson('nonsense').answers[0]!.id).toBeNull();
  });

  it('answers each request of a batch with -32600, and a batch with none once', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
    ];
    expect(notAMessage(batch).answers.map((a) => [a.error.code, a.id])).toEqual([
      [-32600, 1],
      [-32600, 'b'],
    ]);
    expect(notAMessage([]).answers.map((a) => a.id)).toEqual([null]);
  });

  it('says why JSON is no message, naming an id that is not a string or an integer', () => {
    expect(notAMessage({ id: 1.5, method: 'x' }).answers[0]!.error.message).toMatch(
      /an id must be a string or an integer/,
    );
    expect(notAMessage({ hello: 1 }).answers[0]).toMatchObject({ error: { code: -32600 }, id: null });
  });
});

describe('classify', () => {
  const line = (message: object) => JSON.stringify(message);

  it('tells requests, notifications, cancellations and answers apart, once, by the SDK guards', () => {
    const ping = line({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(classify(ping)).toMatchObject({ kind: 'request', bytes: ping.length });
    expect(classify(line({ jsonrpc: '2.0', method: 'notifications/initialized' })).kind).toBe('notification');
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } };
    expect(classify(line(cancel))).toMatchObject({ kind: 'cancellation', requestId: 'a' });
    expect(classify(line({ jsonrpc: '2.0', id: 2, result: {} })).kind).toBe('response');
    expect(classify(line({ jsonrpc: '2.0', id: 3, error: { code: -1, message: 'x' } })).kind).toBe('response');
  });

  it('refuses what is no message, as the refusals word it', () => {
    expect(classify('{"id":1.5,"method":"x"}')).toEqual({
      kind: 'refused',
      refusal: notAMessage({ id: 1.5, method: 'x' }),
    });
    expect(classify('nonsense')).toMatchObject({ kind: 'refused', refusal: { note: expect.stringMatching(/-32700/) } });
  });
});

describe('Requests', () => {
  const request = (id: number, method = 'ping'): Waiting => ({
    kind: 'request',
    message: { jsonrpc: '2.0', id, method },
    bytes: 1,
  });
  const ids = (requests: Requests, refusing = false) => {
    const out: unknown[] = [];
    for (let next = requests.next(refusing); next; next = requests.next(refusing))
      out.push('id' in next.message ? next.message.id : next.message.method);
    return out;
  };

  it('hands on in order, counting the bytes waiting, until a request finds every slot taken', () => {
    const requests = new Requests(1);
    requests.push({ ...request(1), bytes: 10 });
    requests.push({ kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/initialized' }, bytes: 5 });
    requests.push(request(2));
    expect(requests.bytes).toBe(16);
    expect(ids(requests)).toEqual([1, 'notifications/initialized']);
    expect(requests.bytes).toBe(1);
    expect(requests.owing).toBe(1);
    expect(requests.answered(1)).toBe(true);
    expect(ids(requests)).toEqual([2]);
    expect(requests.answered(2)).toBe(true);
    expect(requests.done).toBe(true);
  });

  it('takes no slot for subscriptions/listen, and none while refusing', () => {
    const requests = new Requests(1);
    for (const waiting of [request(1, 'subscriptions/listen'), request(2), request(3), request(4)])
      requests.push(waiting);
    expect(ids(requests)).toEqual([1, 2]);
    expect(ids(requests, true)).toEqual([3, 4]);
    expect(requests.owing).toBe(2);
  });

  it('drops a waiting request a cancellation names, and frees the slot of a running one', () => {
    const requests = new Requests(1);
    for (const id of [1, 2, 3]) requests.push(request(id));
    expect(ids(requests)).toEqual([1]);
    expect(requests.cancel(2)).toBe(true);
    expect(requests.cancel(1)).toBe(false);
    expect(requests.owing).toBe(0);
    expect(ids(requests)).toEqual([3]);
  });

  it('answerAll gives every request owed, then every one waiting, and no answer is written after it', async () => {
    const requests = new Requests(1);
    for (const id of [1, 2, 3]) requests.push(request(id));
    expect(ids(requests)).toEqual([1]);
    requests.cancel(2);
    let settled = false;
    void requests.settled().then(() => (settled = true));
    expect(requests.answerAll()).toEqual([1, 3]);
    await Promise.resolve();
    expect(settled).toBe(true);
    expect(requests.done).toBe(true);
    expect(requests.answered(1)).toBe(false);
  });
});
