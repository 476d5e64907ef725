/**
 * The desktop till's preload: puts the hardware bridge on the page as
 * `window.till`. It runs sandboxed, so it may only require `electron`; every
 * call is one IPC round trip to the main process (`src/main/ipc.ts`).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_CHANNELS, type TillBridge } from '../shared/bridge.ts';

const bridge = {
  kind: 'ipc',
  printReceipt: (printer, receipt, options) =>
    ipcRenderer.invoke(BRIDGE_CHANNELS.printReceipt, printer, receipt, options),
  printText: (printer, text) => ipcRenderer.invoke(BRIDGE_CHANNELS.printText, printer, text),
  openDrawer: (printer) => ipcRenderer.invoke(BRIDGE_CHANNELS.openDrawer, printer),
  status: (printer) => ipcRenderer.invoke(BRIDGE_CHANNELS.status, printer),
  listUsbPrinters: () => ipcRenderer.invoke(BRIDGE_CHANNELS.listUsbPrinters),
  credentials: {
    load: () => ipcRenderer.invoke(BRIDGE_CHANNELS.loadCredential),
    save: (credential) => ipcRenderer.invoke(BRIDGE_CHANNELS.saveCredential, credential),
    clear: () => ipcRenderer.invoke(BRIDGE_CHANNELS.clearCredential),
  },
} satisfies TillBridge;

contextBridge.exposeInMainWorld('till', bridge);
