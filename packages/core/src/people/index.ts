export * from './statutory.ts';
export * from './payslip.ts';
export * from './permits.ts';
export * from './attendance.ts';
export * from './salary-bands.ts';
export * from './employee.ts';
