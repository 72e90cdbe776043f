import { TOKEN_COLUMNS, type TokenRow, toTokenRecord } from '../shared/rows.js'
import type { NewToken, TokenRecord, TokenRecords } from '../tokens.js'
import { FIRST_TOKEN_LOCK, type PostgresDatabase, postgresTime } from './database.js'

const tokenValues = (token: NewToken): unknown[] => [
  token.hash,
  token.subject,
  token.scopes.join(' '),
  token.name,
  token.expiresAt,
  token.createdAt ?? null,
]

export class PostgresTokens implements TokenRecords {
  constructor(private readonly database: PostgresDatabase) {}

  async create(token: NewToken): Promise<number> {
    const result = await this.database.query<{ id: string }>(
      'create_token',
      'INSERT INTO tokens (hash, subject, scopes, name, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now())) RETURNING id',
      tokenValues(token),
    )
    return Number(result.rows[0]?.id)
  }

  async createFirst(token: NewToken): Promise<number | null> {
    // Under the lock, so that of several instances starting on an empty database only one makes it.
    return this.database.lockedTransaction(FIRST_TOKEN_LOCK, async (client) => {
      const result = await client.query<{ id: string }>(
        'INSERT INTO tokens (hash, subject, scopes, name, expires_at, created_at) SELECT $1, $2, $3, $4, $5, COALESCE($6::timestamptz, now()) WHERE NOT EXISTS (SELECT 1 FROM tokens) RETURNING id',
        tokenValues(token),
      )
      const row = result.rows[0]
      return row === undefined ? null : Number(row.id)
    })
  }

  async findByHash(hash: string): Promise<TokenRecord | null> {
    const result = await this.database.query<TokenRow<Date>>('find_token', `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $1`, [hash])
    const row = result.rows[0]
    return row === undefined ? null : toTokenRecord(row, postgresTime)
  }

  async list(): Promise<TokenRecord[]> {
    const result = await this.database.query<TokenRow<Date>>('list_tokens', `SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY id`, [])
    return result.rows.map((row) => toTokenRecord(row, postgresTime))
  }

  async revoke(id: number): Promise<boolean> {
    const result = await this.database.query('revoke_token', 'UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
      id,
    ])
    return result.rowCount === 1
  }
}
