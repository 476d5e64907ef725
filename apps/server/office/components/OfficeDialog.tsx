/** The shared dialog in the office's words. */
import { useI18n } from '../i18n/index.ts';
import { Dialog, type DialogProps } from '../shared.ts';

export function OfficeDialog(props: DialogProps) {
  const { t } = useI18n();
  return <Dialog {...props} closeLabel={t('close')} />;
}
