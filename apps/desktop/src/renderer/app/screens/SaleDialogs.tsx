/** The dialogs the sale screen opens over itself, one at a time. */
import type { Cart, CartLine, CatalogueItem, CompletedSale, ParkedCart } from '../../data/api.ts';
import { DiscountDialog, ParkedDialog, QuantityDialog } from './sale-dialogs.tsx';
import { CustomerDialog } from './CustomerDialog.tsx';
import { SaleDoneDialog, TenderDialog } from './TenderDialog.tsx';
import { VariantDialog } from './VariantDialog.tsx';

export type SaleDialog =
  | { kind: 'quantity'; line: CartLine }
  | { kind: 'weigh'; item: CatalogueItem }
  | { kind: 'variants'; product: CatalogueItem }
  | { kind: 'lineDiscount'; line: CartLine }
  | { kind: 'orderDiscount' }
  | { kind: 'customer' }
  | { kind: 'parked' }
  | { kind: 'tender' }
  | { kind: 'done'; completed: CompletedSale };

export function SaleDialogs({
  dialog,
  cart,
  parked,
  currency,
  onPick,
  onCompleted,
  onClose,
}: {
  dialog: SaleDialog | null;
  cart: Cart | null;
  parked: ParkedCart[];
  currency: string;
  onPick: (item: CatalogueItem) => void;
  onCompleted: (completed: CompletedSale) => void;
  onClose: () => void;
}) {
  const lines = cart?.lines ?? [];
  return (
    <>
      {dialog?.kind === 'quantity' && <QuantityDialog line={dialog.line} onClose={onClose} />}
      {dialog?.kind === 'weigh' && <QuantityDialog item={dialog.item} onClose={onClose} />}
      {dialog?.kind === 'variants' && (
        <VariantDialog product={dialog.product} onPick={onPick} onClose={onClose} />
      )}
      {dialog?.kind === 'lineDiscount' && (
        <DiscountDialog line={dialog.line} currency={currency} onClose={onClose} />
      )}
      {dialog?.kind === 'orderDiscount' && <DiscountDialog currency={currency} onClose={onClose} />}
      {dialog?.kind === 'customer' && <CustomerDialog current={cart?.customer ?? null} onClose={onClose} />}
      {dialog?.kind === 'parked' && (
        <ParkedDialog parked={parked} canPark={lines.length > 0} onClose={onClose} />
      )}
      {dialog?.kind === 'tender' && cart && (
        <TenderDialog cart={cart.priced} onClose={onClose} onCompleted={onCompleted} />
      )}
      {dialog?.kind === 'done' && <SaleDoneDialog completed={dialog.completed} onClose={onClose} />}
    </>
  );
}
