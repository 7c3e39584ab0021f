// @vitest-environment jsdom
/**
 * The console's offering form turns its fields into the admin/saveOffering request exactly: the
 * NT$ price into minor units, the deposit percentage into bps, lots into shares for a public
 * subscription; a field that is not a number gives no request; the request passes the contract's
 * schema.
 */
import { describe, expect, it } from 'vitest';
import { saveOfferingReq } from '../../contract/primary';
import { formatBusinessDay } from '../../src/admin/day-picker';
import { offeringRequest } from '../../src/admin/offerings-panel';

const fields = {
  symbol: ' 2330 ',
  name: '台積電',
  price: '46.00',
  lots: '20',
  sharesPerApplication: '1000',
  deposit: '20.5',
  start: '7',
  end: '9',
  listing: '12',
};

describe('offeringRequest', () => {
  it('auction: minimum price in minor units, deposit 20.5 % = 2,050 bps', () => {
    const body = offeringRequest('auction', undefined, fields);
    expect(body).toEqual({
      kind: 'auction',
      symbol: '2330',
      name: '台積電',
      priceMinor: 4_600,
      lots: 20,
      depositBps: 2_050,
      startDay: 7,
      listingDay: 12,
    });
    expect(saveOfferingReq.safeParse(body).success).toBe(true);
  });

  it('subscription: lots → shares offered; edit keeps the id', () => {
    expect(offeringRequest('subscription', 5, fields)).toMatchObject({
      id: 5,
      kind: 'subscription',
      sharesOffered: 20_000,
      sharesPerApplication: 1_000,
    });
  });

  it('block trade and placement carry their last day', () => {
    expect(offeringRequest('placement', undefined, fields)).toMatchObject({ endDay: 9, lots: 20 });
  });

  it.each([
    ['price', '46.001'],
    ['lots', '2.5'],
    ['start', 'x'],
    ['deposit', 'abc'],
  ])('no request when %s is %j', (key, value) => {
    expect(offeringRequest('auction', undefined, { ...fields, [key]: value })).toBeNull();
  });
});

describe('formatBusinessDay', () => {
  const t = ((key: string, o?: { count?: number }) =>
    key.endsWith('dayToday') ? 'today' : `${key.split('.').pop()}:${o?.count}`) as never;
  it('shows the replayed date in the language and the distance from today, never the day number', () => {
    expect(formatBusinessDay({ day: 817_501, date: '2025-04-14' }, 817_498, 'tw', t)).toBe(
      '2025/04/14（週一） · dayAhead:3',
    );
    expect(formatBusinessDay({ day: 817_498, date: '2025-04-14' }, 817_498, 'en', t)).toBe(
      'Mon 14 Apr 2025 · today',
    );
    // A feed without dates: the distance only.
    expect(formatBusinessDay({ day: 5, date: '' }, 7, 'en', t)).toBe('dayBehind:2');
  });
});
