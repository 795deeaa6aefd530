/** The bound's slots: taken in order, passed straight to the next in line, a full queue refused; stdio's tryTake. */
import { describe, expect, it } from 'vitest';
import { Slots, type Release } from '../../../src/lib/slots.js';

const granted = async (take: ReturnType<Slots['take']>) => {
  if (!take.ok) throw new Error('refused');
  return take.slot;
};

describe('Slots', () => {
  it('grants `size` at once, queues `queueSize` in order, refuses the rest', async () => {
    const slots = new Slots(2, 2);
    const first = (await granted(slots.take()))!;
    await granted(slots.take());
    const order: number[] = [];
    const third = slots.take();
    const fourth = slots.take();
    void (third.ok && third.slot.then(() => order.push(3)));
    void (fourth.ok && fourth.slot.then(() => order.push(4)));
    expect(slots.take().ok).toBe(false);
    first();
    first(); // a second release of one slot frees nothing more
    await Promise.resolve();
    expect(order).toEqual([3]);
    expect(slots.take().ok).toBe(true); // the queue has room for one again
    expect(slots.take().ok).toBe(false);
  });

  it('tryTake gives a slot only when one is free and no one waits, and never queues', async () => {
    const slots = new Slots(1, 1);
    const release = slots.tryTake()!;
    expect(slots.tryTake()).toBeUndefined();
    const queued = slots.take();
    release();
    expect(slots.tryTake()).toBeUndefined(); // the slot went to the one in line
    (await granted(queued))!();
    expect(slots.tryTake()).toBeDefined();
  });

  it('drops a waiter whose client left, and turns every waiter away on clearQueue', async () => {
    const slots = new Slots(1, 3);
    const held: Release = (await granted(slots.take()))!;
    const left = new AbortController();
    const leaving = slots.take(left.signal);
    const staying = slots.take();
    left.abort();
    expect(await (leaving.ok && leaving.slot)).toBeUndefined();
    slots.clearQueue();
    expect(await (staying.ok && staying.slot)).toBeUndefined();
    held();
    expect(slots.free).toBe(true);
  });
});
