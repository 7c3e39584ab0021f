// @vitest-environment jsdom
/**
 * The member money screens against a stubbed server (real store, api, base query and locales):
 * - the image picker refuses oversized and non-image files before uploading, uploads a good one
 *   at once (multipart with its purpose) and reports the upload id;
 * - the KYC form checks the Taiwan ID check digit inline and sends nothing while it is wrong;
 * - a deposit cannot be submitted until the receipt upload succeeded, then goes out with the
 *   receipt id and an idempotency key;
 * - the exchange screen previews exactly what the server pays and refuses the same currency
 *   with the spec's message, in both languages.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_HEADER, UPLOAD_MAX_BYTES } from '../../contract/constants';
import { en } from './support/strings';
import { tw } from './support/strings';
import { loggedIn } from '../../src/api/session';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { ExchangePage } from '../../src/features/funds/routes/exchange';
import { RechargeChannelPage } from '../../src/features/funds/routes/recharge-channel';
import { BandCardPage } from '../../src/features/identity/routes/band-card';
import { ImagePicker } from '../../src/ui/image-picker';

type Handler = (body: unknown, init: RequestInit) => { status?: number; msg?: string; data: unknown };
let handlers: Record<string, Handler> = {};
const calls: { name: string; body: unknown; init: RequestInit }[] = [];

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/vue/', '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      calls.push({ name, body, init });
      const h = handlers[name];
      if (!h)
        return new Response(JSON.stringify({ status: 0, msg: 'notFound', data: null }), { status: 404 });
      const r = h(body, init);
      return new Response(JSON.stringify({ status: r.status ?? 1, msg: r.msg ?? 'ok', data: r.data }), {
        status: r.status === 0 ? 422 : 200,
      });
    }),
  );
}

function renderAt(path: string, route: string, element: ReactNode) {
  const store = createAppStore();
  store.dispatch(
    loggedIn({ token: 'tok', account: '0912345678', role: 'member', isAdmin: false, expiresAt: 0 }),
  );
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const png = (bytes = 64) => new File([new Uint8Array(bytes)], 'x.png', { type: 'image/png' });

beforeAll(async () => {
  await setupI18n('en', { en, tw });
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});
beforeEach(() => {
  handlers = {
    'common/config': () => ({ data: [] }),
    upload: (_b, init) => {
      const form = init.body as FormData;
      return { data: { id: 'a'.repeat(32), purpose: form.get('purpose'), mime: 'image/png', bytes: 64 } };
    },
  };
  calls.length = 0;
  stubServer();
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  await i18next.changeLanguage('en');
});

describe('ImagePicker', () => {
  function mount() {
    const onChange = vi.fn();
    renderAt('/', '/', <ImagePicker purpose="receipt" label="Receipt" testId="pick" onChange={onChange} />);
    return { onChange, input: screen.getByTestId('pick') as HTMLInputElement };
  }

  it('accepts only the contract image types', () => {
    const { input } = mount();
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');
  });

  it('refuses a file over the limit it cannot make smaller, without sending it', async () => {
    // jsdom decodes no images (no createImageBitmap): the downscale fails, the refusal stands.
    const { input, onChange } = mount();
    const big = png();
    Object.defineProperty(big, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    fireEvent.change(input, { target: { files: [big] } });
    expect((await screen.findByTestId('pick-error')).textContent).toBe(en.errors.fileTooLarge);
    expect(calls.filter((c) => c.name === 'upload')).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalledWith(expect.any(String));
  });

  it('sends a photo over the limit as a smaller JPEG instead of refusing it', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 4_032, height: 3_024, close: () => undefined }));
    const ctx = { fillStyle: '', fillRect: () => undefined, drawImage: () => undefined };
    const getContext = vi
      .spyOn(HTMLCanvasElement.prototype, 'getContext')
      .mockReturnValue(ctx as unknown as CanvasRenderingContext2D);
    const toBlob = vi
      .spyOn(HTMLCanvasElement.prototype, 'toBlob')
      .mockImplementation((cb) => cb(new Blob([new Uint8Array(1_000)], { type: 'image/jpeg' })));
    try {
      const { input, onChange } = mount();
      const big = png();
      Object.defineProperty(big, 'size', { value: UPLOAD_MAX_BYTES * 2 });
      fireEvent.change(input, { target: { files: [big] } });
      await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('a'.repeat(32)));
      const sent = (calls.find((c) => c.name === 'upload')!.body as FormData).get('file') as File;
      expect(sent.type).toBe('image/jpeg');
      expect(sent.size).toBe(1_000);
      expect(sent.name).toBe('x.jpg');
      expect(screen.queryByTestId('pick-error')).toBeNull();
    } finally {
      getContext.mockRestore();
      toBlob.mockRestore();
    }
  });

  it('refuses a declared non-image type without sending it', async () => {
    const { input } = mount();
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'a.pdf', { type: 'application/pdf' })] },
    });
    expect((await screen.findByTestId('pick-error')).textContent).toBe('Only JPEG, PNG or WebP images');
    expect(calls.filter((c) => c.name === 'upload')).toHaveLength(0);
  });

  it('shows the server refusal of a file that lies about its type', async () => {
    handlers.upload = () => ({ status: 0, msg: 'unsupportedFileType', data: null });
    const { input, onChange } = mount();
    fireEvent.change(input, { target: { files: [png()] } });
    expect((await screen.findByTestId('pick-error')).textContent).toBe('Only JPEG, PNG or WebP images');
    expect(screen.getByTestId('pick-status').dataset.status).toBe('error');
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('uploads a good file at once with its purpose and reports the id', async () => {
    const { input, onChange } = mount();
    fireEvent.change(input, { target: { files: [png()] } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('a'.repeat(32)));
    const up = calls.find((c) => c.name === 'upload')!;
    expect((up.init.headers as Record<string, string>).token).toBe('tok');
    expect((up.body as FormData).get('purpose')).toBe('receipt');
    expect(screen.getByTestId('pick-status').dataset.status).toBe('done');
    expect(screen.getByRole('img').getAttribute('src')).toBe('blob:preview');
  });
});

describe('/user/bandCard', () => {
  it('checks the ID check digit inline and sends nothing while it is wrong', async () => {
    handlers['user/kyc'] = () => ({
      data: {
        status: 'unverified',
        name: null,
        idNumberMasked: null,
        reason: null,
        submittedAt: null,
        reviewedAt: null,
      },
    });
    handlers['user/submitKyc'] = () => ({ data: null });
    renderAt('/user/bandCard', '/user/bandCard', <BandCardPage />);
    fireEvent.change(await screen.findByTestId('kyc-name'), { target: { value: '王小明' } });
    const id = screen.getByTestId('kyc-id');
    fireEvent.change(id, { target: { value: 'A123456788' } });
    fireEvent.blur(id);
    expect(
      await screen.findByText(
        'Not a valid Taiwan ID or resident certificate number: check the letters and the last digit',
      ),
    ).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('kyc-submit'));
    });
    expect(await screen.findAllByText('ID images missing')).toHaveLength(2);
    expect(calls.some((c) => c.name === 'user/submitKyc')).toBe(false);
  });

  it('shows the operator reason when not passed, with the form to resubmit', async () => {
    handlers['user/kyc'] = () => ({
      data: {
        status: 'rejected',
        name: '王小明',
        idNumberMasked: null,
        reason: 'Blurred photo',
        submittedAt: 1,
        reviewedAt: 2,
      },
    });
    renderAt('/user/bandCard', '/user/bandCard', <BandCardPage />);
    expect((await screen.findByTestId('kyc-reason')).textContent).toContain('Blurred photo');
    expect(screen.getByTestId('kyc-submit').textContent).toBe('Submit again');
  });
});

const summary = (kycStatus: string) => ({
  data: {
    account: '0912345678',
    currency: 'TWD',
    totalAssetsMinor: 0,
    availableMinor: 0,
    frozenMinor: 0,
    marginMinor: 0,
    unrealisedPnlMinor: 0,
    realisedProfitMinor: 0,
    kycStatus,
    usdMinor: 0,
    fundsPasswordSet: false,
  },
});

describe('/user/rechargeChannel', () => {
  beforeEach(() => {
    handlers['user/info'] = () => summary('verified');
    handlers['user/depositChannels'] = () => ({
      data: {
        channels: [
          {
            id: 7,
            name: 'Bank A',
            accountName: 'TW Trade Ltd',
            accountNumber: '00123456789',
            bankName: 'Bank of Taiwan',
            branch: 'Taipei',
            currency: 'TWD',
            minMinor: 100_000,
            maxMinor: 10_000_000,
            hasPassword: false,
          },
        ],
        hours: { open: '09:30', close: '19:30', weekdaysOnly: true, holidaysClosed: true },
        openNow: true,
        nextOpenAt: null,
      },
    });
    handlers['user/recharge'] = (body) => ({
      msg: 'deposit',
      data: {
        id: 1,
        amountMinor: (body as { amountMinor: number }).amountMinor,
        currency: 'TWD',
        channelName: 'Bank A',
        status: 'pending',
        reason: null,
        createdAt: 0,
        reviewedAt: null,
      },
    });
  });

  it('keeps submit disabled until the receipt is uploaded, then sends it with a key', async () => {
    renderAt('/user/rechargeChannel?id=7', '/user/rechargeChannel', <RechargeChannelPage />);
    expect((await screen.findByTestId('channel-account-number')).textContent).toBe('00123456789');
    fireEvent.change(screen.getByTestId('recharge-amount'), { target: { value: '2,000.5' } });
    const submit = screen.getByTestId('recharge-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('recharge-receipt'), { target: { files: [png()] } });
    await waitFor(() => expect(submit.disabled).toBe(false));
    await act(async () => {
      fireEvent.click(submit);
    });
    expect((await screen.findByTestId('recharge-result')).dataset.status).toBe('pending');
    const sent = calls.find((c) => c.name === 'user/recharge')!;
    expect(sent.body).toEqual({ channelId: 7, amountMinor: 200_050, receiptUploadId: 'a'.repeat(32) });
    expect((sent.init.headers as Record<string, string>)[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.queryByTestId('deposit-verify-first')).toBeNull();
  });

  it('tells an unverified member to verify first, links to verification and keeps submit off', async () => {
    handlers['user/info'] = () => summary('unverified');
    renderAt('/user/rechargeChannel?id=7', '/user/rechargeChannel', <RechargeChannelPage />);
    const notice = await screen.findByTestId('deposit-verify-first');
    expect(notice.textContent).toContain(
      'Deposits need real-name verification first: verify your identity, then deposit.',
    );
    expect(screen.getByTestId('deposit-verify-link').textContent).toBe('Verify now');
    fireEvent.change(screen.getByTestId('recharge-amount'), { target: { value: '2000' } });
    fireEvent.change(screen.getByTestId('recharge-receipt'), { target: { files: [png()] } });
    await waitFor(() => expect(calls.some((c) => c.name === 'upload')).toBe(true));
    expect((screen.getByTestId('recharge-submit') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('/user/exchange', () => {
  beforeEach(() => {
    handlers['user/balances'] = () => ({
      data: [
        { currency: 'TWD', availableMinor: 5_000_000, frozenMinor: 0, marginMinor: 0 },
        { currency: 'USD', availableMinor: 10_000, frozenMinor: 0, marginMinor: 0 },
      ],
    });
    handlers['user/rates'] = () => ({
      data: [{ currency: 'TWD', buyPpm: 31_840_000, sellPpm: 31_990_000, source: 'BOT', asOf: '2026-03-13' }],
    });
  });

  it.each(['en', 'tw'] as const)('previews exactly and refuses the same currency (%s)', async (lang) => {
    await i18next.changeLanguage(lang);
    renderAt('/user/exchange', '/user/exchange', <ExchangePage />);
    expect((await screen.findByTestId('balance-TWD')).textContent).toBe('50,000.00');
    expect(screen.getByTestId('balance-USD').textContent).toBe('100.00');
    fireEvent.change(screen.getByTestId('exchange-amount'), { target: { value: '10000' } });
    expect(screen.getByTestId('exchange-rate').textContent).toBe('1 USD = 31.99 TWD');
    expect(screen.getByTestId('exchange-preview').textContent).toBe('312.59 USD');
    fireEvent.click(screen.getByTestId('exchange-swap'));
    fireEvent.change(screen.getByTestId('exchange-amount'), { target: { value: '10' } });
    expect(screen.getByTestId('exchange-rate').textContent).toBe('1 USD = 31.84 TWD');
    expect(screen.getByTestId('exchange-preview').textContent).toBe('318.40 TWD');
    fireEvent.change(screen.getByTestId('exchange-from'), { target: { value: 'TWD' } });
    const error = screen.getByTestId('exchange-error');
    expect(error.dataset.key).toBe('errors.sameCurrency');
    expect(error.textContent).toBe(
      lang === 'en' ? 'The same currency cannot be exchanged' : '不能兌換相同幣別',
    );
    expect((screen.getByTestId('exchange-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.name === 'user/exchange')).toBe(false);
  });
});
