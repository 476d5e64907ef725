export * from './statutory.ts';
export * from './payslip.ts';
