/**
 * The sale-done dialog's digital receipt: the receipt page's link as a QR
 * code for the customer to scan (drawn here, offline too), and as a WhatsApp
 * or SMS message to the sale's customer, or to whoever the cashier picks.
 */
import { useEffect, useRef, useState } from 'react';
import { QrCode } from '../../ui/QrCode.tsx';
import type { CompletedSale, DigitalReceiptLink } from '../../data/api.ts';
import { formatMoney, useI18n } from '../../i18n/index.tsx';

/** `wa.me` to the customer's number (255…), or to a chat the cashier picks when there is none. */
export const whatsAppHref = (phone: string | null, text: string): string =>
  `https://wa.me/${phone ?? ''}?text=${encodeURIComponent(text)}`;

/** An SMS to the customer's number, or with no number for the cashier to fill in. */
export const smsHref = (phone: string | null, text: string): string =>
  `sms:${phone ? `+${phone}` : ''}?body=${encodeURIComponent(text)}`;

export function DigitalReceipt({ completed }: { completed: CompletedSale }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  // Below the dialog's buttons: brought into view for the customer to scan.
  useEffect(() => {
    if (open) panel.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  const link: DigitalReceiptLink | undefined = completed.digitalReceipt;
  if (!link) return null;
  const { sale } = completed;
  const text = t('digitalReceiptText', {
    store: sale.receipt.store.name,
    number: sale.receiptNumber,
    total: formatMoney(sale.total, sale.currency),
    url: link.url,
  });
  return (
    <div className="digital-receipt" data-testid="digital-receipt">
      <button
        type="button"
        className="big"
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
        data-testid="digital-receipt-toggle"
      >
        {t('digitalReceipt')}
      </button>
      {open && (
        <div className="digital-receipt-panel" ref={panel}>
          <QrCode text={link.url} label={t('digitalReceiptQr')} testId="receipt-qr" />
          <p className="muted">{t('digitalReceiptScan')}</p>
          <div className="row">
            <a
              className="link-button grow"
              href={whatsAppHref(link.phone, text)}
              target="_blank"
              rel="noreferrer"
              data-testid="receipt-whatsapp"
            >
              {t('digitalReceiptWhatsApp')}
            </a>
            <a className="link-button grow" href={smsHref(link.phone, text)} data-testid="receipt-sms">
              {t('digitalReceiptSms')}
            </a>
          </div>
          {link.phone && <p className="muted">{t('digitalReceiptTo', { phone: `+${link.phone}` })}</p>}
        </div>
      )}
    </div>
  );
}
