/** The UI pieces the back office shares with the till (apps/desktop/src/renderer/ui), in one import. */
export { Dialog, Kbd, Message, type DialogProps } from '../../desktop/src/renderer/ui/Dialog.tsx';
export { QrCode } from '../../desktop/src/renderer/ui/QrCode.tsx';
export { Segmented } from '../../desktop/src/renderer/ui/Segmented.tsx';
export { createI18n } from '../../desktop/src/renderer/ui/i18n.tsx';
export {
  formatDateTime,
  formatMoney,
  formatTime,
  formatCount,
  type Language,
} from '../../desktop/src/renderer/ui/format.ts';
