// @vitest-environment jsdom
/**
 * The console's offering form turns its fields into the admin/saveOffering request exactly: the
 * NT$ price into minor units, the deposit percentage into bps, lots into shares for a public
 * subscription; a field that is not a number gives no request; the request passes the contract's
 * schema.
 */
import { describe, expect, it } from 'vitest';
import { saveOfferingReq } from '../../contract/primary';
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
